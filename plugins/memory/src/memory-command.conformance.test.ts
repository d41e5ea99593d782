import { describeCommandConformance } from '@nodwyn/testing';
import { memoryPlugin } from './index.js';

describeCommandConformance(memoryPlugin);
