export { SANDBOX_CASE_IDS, type Attempt, type EscapeCase, type SandboxCaseId } from './escape-case.js';
export { CANARY_VARIABLE, startSandboxFixture, type RunInput, type SandboxFixture } from './sandbox-fixture.js';
export { startRecordingServer, type RecordingServer, type SeenRequest } from './recording-server.js';
export { describeSandboxRunnerConformance, SANDBOX_ESCAPE_CASES, type SandboxRunnerSuiteOptions } from './sandbox-runner-conformance.js';
