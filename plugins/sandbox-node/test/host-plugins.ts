import { egressPlugin } from '@nodwyn/plugin-egress';
import { keychainPlugin } from '@nodwyn/plugin-keychain';
import { redactL1Plugin } from '@nodwyn/plugin-redact-l1';
import { redactL2Plugin } from '@nodwyn/plugin-redact-l2';
import { toolsCorePlugin } from '@nodwyn/plugin-tools-core';

/** The plugins whose primitives the runner's doors call: read_file and write_file, http_request and its egress edge, the text layers. */
export const HOST_PLUGINS = [toolsCorePlugin, keychainPlugin, egressPlugin, redactL1Plugin, redactL2Plugin];
