import { describeFrontendConformance } from '@nodwyn/testing';
import { lineFrontendPlugin } from '../src/line.js';

describeFrontendConformance(lineFrontendPlugin, { args: ['hello'] });
