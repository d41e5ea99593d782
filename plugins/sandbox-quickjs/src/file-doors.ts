import { EnvelopeError, readText } from '@nodwyn/plugin-api';
import type { QuickJSHandle } from 'quickjs-emscripten-core';
import { sandboxError } from './errors.js';
import { doorCall, requireGrant, requireString, stringArgument, type DoorScope } from './door-call.js';
import { confinePath } from './workspace-path.js';

/** `nodwyn.readFile(path)`: the read grant, the runner's own path check, then read_file through the guard. */
export function readFileDoor(scope: DoorScope, pathHandle: QuickJSHandle): QuickJSHandle {
  const door = 'nodwyn.readFile';
  const path = stringArgument(scope.vm, pathHandle);
  return doorCall(scope, door, async () => {
    requireGrant(scope.request.grants.read === true, 'read', door);
    const relative = await confinePath(scope.request.workspace, requireString(path, door, '$.path'), door);
    const text = await readText((name, args) => scope.apply(name, args), relative, door, sandboxError);
    return () => scope.vm.newString(text);
  });
}

/** `nodwyn.writeFile(path, text)`: the write grant, the runner's own path check, then write_file through the guard. */
export function writeFileDoor(scope: DoorScope, pathHandle: QuickJSHandle, textHandle: QuickJSHandle): QuickJSHandle {
  const door = 'nodwyn.writeFile';
  const path = stringArgument(scope.vm, pathHandle);
  const text = stringArgument(scope.vm, textHandle);
  return doorCall(scope, door, async () => {
    requireGrant(scope.request.grants.write === true, 'write', door);
    const relative = await confinePath(scope.request.workspace, requireString(path, door, '$.path'), door);
    const result = await scope.apply('write_file', { path: relative, content: requireString(text, door, '$.text') });
    if (!result.ok) throw new EnvelopeError(result.envelope);
    return () => scope.vm.undefined;
  });
}
