import { describeCommandConformance, describeGuardStageConformance } from '@nodwyn/testing';
import { egressPlugin } from '../src/index.js';
import { keychainPlugin } from './fixtures.js';

describeGuardStageConformance(egressPlugin, { with: [keychainPlugin()] });
describeCommandConformance(egressPlugin, { with: [keychainPlugin()] });
