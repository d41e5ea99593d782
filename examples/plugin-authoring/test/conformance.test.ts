import { describeCommandConformance, describeGuardStageConformance } from '@nodwyn/testing';
import { hideKeyIdsPlugin } from '../src/hide-key-ids.js';
import { notesPlugin } from '../src/notes.js';
import { readOnlyPlugin } from '../src/read-only.js';

describeGuardStageConformance(readOnlyPlugin, { allows: [{ tier: 'read' }], stops: [{ tier: 'mutate' }, { tier: 'irreversible', origin: 'host' }] });
describeGuardStageConformance(hideKeyIdsPlugin);
describeCommandConformance(notesPlugin);
