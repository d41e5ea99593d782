import { describeCommandConformance } from '@nodwyn/testing';
import { keychainPlugin } from '../src/index.js';

describeCommandConformance(keychainPlugin);
