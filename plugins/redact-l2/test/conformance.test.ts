import { describeGuardStageConformance } from '@nodwyn/testing';
import { redactL2Plugin } from '../src/index.js';

describeGuardStageConformance(redactL2Plugin);
