import { egressPlugin } from '@nodwyn/plugin-egress';
import { keychainPlugin } from '@nodwyn/plugin-keychain';
import { redactL1Plugin } from '@nodwyn/plugin-redact-l1';
import { redactL2Plugin } from '@nodwyn/plugin-redact-l2';
import { toolsCorePlugin } from '@nodwyn/plugin-tools-core';

/**
 * The host plugins the escape suite starts the kernel with (file tools, keychain, egress edge, text
 * layers): the Deno runner's readFile and writeFile doors call read_file and write_file through them, so
 * the suite's kernel is the one a distribution runs.
 */
export const HOST_PLUGINS = [toolsCorePlugin, keychainPlugin, egressPlugin, redactL1Plugin, redactL2Plugin];
