// API reports of the packages plugin and front-end authors build on (docs/releasing.md).
// `node tools/release/api-report.mjs` checks every entry point's report against packages/<p>/api/ and
// exits 1 when one differs; `--update` (npm run api:update) rewrites the reports instead.
// Both first build the packages' declarations with `tsc -b`, which the reports are generated from.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Each reported package's entry points: report name → declaration file under the package's dist/. */
export const ENTRY_POINTS = {
  protocol: { protocol: 'dist/src/index.d.ts', 'protocol-desktop-bridge': 'dist/src/desktop-bridge.d.ts', 'protocol-tool-progress': 'dist/src/tool-progress.d.ts' },
  client: { client: 'dist/src/index.d.ts', 'client-node': 'dist/src/node.d.ts' },
  'plugin-api': {
    'plugin-api': 'dist/src/index.d.ts',
    'plugin-api-transport': 'dist/src/transport/index.d.ts',
    'plugin-api-sandbox': 'dist/src/sandbox.d.ts',
  },
};

function extract(folder, reportName, entry, update, tempFolder) {
  const projectFolder = join(root, 'packages', folder);
  const config = ExtractorConfig.prepare({
    configObjectFullPath: join(projectFolder, 'api-extractor.json'),
    packageJsonFullPath: join(projectFolder, 'package.json'),
    configObject: {
      projectFolder,
      mainEntryPointFilePath: join(projectFolder, entry),
      compiler: {
        overrideTsconfig: {
          compilerOptions: { target: 'ES2022', lib: ['ES2023', 'DOM'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: ['node'] },
          include: [join(projectFolder, 'dist/src/**/*.d.ts')],
        },
      },
      apiReport: { enabled: true, reportFileName: reportName, reportFolder: join(projectFolder, 'api'), reportTempFolder: tempFolder },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: { default: { logLevel: 'none' }, 'ae-forgotten-export': { logLevel: 'none' } },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
  });
  if (update) mkdirSync(join(projectFolder, 'api'), { recursive: true });
  const result = Extractor.invoke(config, { localBuild: update, showVerboseMessages: false, messageCallback: quiet });
  if (result.errorCount > 0) failed.push(`packages/${folder} (${entry}): ${result.errorCount} api-extractor errors`);
  return result.apiReportChanged;
}

/** Only api-extractor's own findings about the API are worth printing; its banner and TS-version note are not. */
function quiet(message) {
  if (message.messageId === 'console-compiler-version-notice' || message.logLevel === 'verbose' || message.logLevel === 'info') message.handled = true;
}

const update = process.argv.includes('--update');
execFileSync('npx', ['tsc', '-b', ...Object.keys(ENTRY_POINTS).map((folder) => `packages/${folder}`)], { cwd: root, stdio: 'inherit' });
const tempFolder = mkdtempSync(join(tmpdir(), 'nodwyn-api-'));
const changed = [];
const failed = [];
try {
  for (const [folder, entries] of Object.entries(ENTRY_POINTS)) {
    for (const [reportName, entry] of Object.entries(entries)) {
      if (extract(folder, reportName, entry, update, tempFolder)) changed.push(`packages/${folder}/api/${reportName}.api.md`);
    }
  }
} finally {
  rmSync(tempFolder, { recursive: true, force: true });
}
if (failed.length > 0) {
  console.error(`API reports could not be made: ${failed.join('; ')}.`);
  process.exit(1);
}
if (changed.length > 0 && !update) {
  console.error(`API reports differ from the code: ${changed.join(', ')}.\nIf the change is meant, run \`npm run api:update\` and commit the reports (docs/releasing.md).`);
  process.exit(1);
}
console.log(update ? `API reports updated (${changed.length} changed).` : 'API reports match the code.');
