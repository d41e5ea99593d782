import type { AgentContext, RequestPermissionRequest, RequestPermissionResponse, SessionUpdate } from '@agentclientprotocol/sdk';
import { EnvelopeError, type WorkspaceFiles } from '@nodwyn/plugin-api';
import { NODWYN_METHODS, type ConfirmationRequested, type LogEvent } from '@nodwyn/protocol';
import { serverErrors } from './errors.js';

let nextId = 0;

/** What a client said about itself in `initialize`. */
export interface ClientHello {
  readonly name?: string;
  readonly fsRead: boolean;
  readonly fsWrite: boolean;
}

/**
 * One client connection (a stdio pipe or a WebSocket) as the sessions see it: a label for the log
 * (`confirmation.decided` names who answered), the capabilities it declared, and the calls the agent makes
 * to it. Sending to a closed connection does nothing: a client that left misses updates, never breaks a turn.
 */
export class ClientConnection {
  readonly id = ++nextId;
  #hello: ClientHello = { fsRead: false, fsWrite: false };
  #closed = false;

  constructor(private readonly client: AgentContext) {}

  /** `client-<n>`, with the client's own name when it gave one. */
  get label(): string {
    const name = this.#hello.name?.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 40);
    return name ? `client-${this.id}:${name}` : `client-${this.id}`;
  }

  get closed(): boolean {
    return this.#closed;
  }

  greet(hello: ClientHello): void {
    this.#hello = hello;
  }

  markClosed(): void {
    this.#closed = true;
  }

  update(sessionId: string, update: SessionUpdate): void {
    this.#notify('session/update', { sessionId, update });
  }

  log(sessionId: string, event: LogEvent): void {
    this.#notify(NODWYN_METHODS.log, { sessionId, event });
  }

  confirmation(request: ConfirmationRequested): void {
    this.#notify(NODWYN_METHODS.confirmationRequested, request);
  }

  /** `session/request_permission`; aborting `signal` withdraws it with `$/cancel_request`. */
  requestPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
    if (this.#closed) return Promise.reject(new Error('the client left'));
    return this.client.request('session/request_permission', request, { cancellationSignal: signal, stopWaitingOnCancel: true });
  }

  /**
   * The client's own view of files (ACP `fs/*`), when it declared both capabilities: what the model reads
   * is the editor's buffer, unsaved changes included. The file tools still check every path first.
   */
  files(sessionId: string): WorkspaceFiles | undefined {
    if (!this.#hello.fsRead || !this.#hello.fsWrite) return undefined;
    const failed = (operation: string, path: string, error: unknown): EnvelopeError =>
      serverErrors.error(
        'CLIENT_FS_FAILED',
        { operation, received_value: path, remediation: `The editor could not ${operation === 'fs/read_text_file' ? 'read' : 'write'} ${path} (${error instanceof Error ? error.message : String(error)}); check the path, or open the file in the editor.` },
        error,
      );
    return {
      readText: async (path, signal) => {
        try {
          const response = await this.client.request('fs/read_text_file', { sessionId, path }, { cancellationSignal: signal });
          return response.content;
        } catch (error) {
          throw failed('fs/read_text_file', path, error);
        }
      },
      writeText: async (path, content, signal) => {
        try {
          await this.client.request('fs/write_text_file', { sessionId, path, content }, { cancellationSignal: signal });
        } catch (error) {
          throw failed('fs/write_text_file', path, error);
        }
      },
    };
  }

  #notify(method: string, params: unknown): void {
    if (this.#closed) return;
    this.client.notify(method, params).catch(() => this.markClosed());
  }
}
