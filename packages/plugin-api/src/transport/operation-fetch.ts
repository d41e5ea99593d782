import type { OperationFetch } from './operation-types.js';

/**
 * An OperationFetch on the platform's fetch, redirects not followed: for tests and programs without the
 * egress sender. It does not replace `{{secret:NAME}}` handles; in nodwyn, pass the egress sender.
 */
export const directOperationFetch: OperationFetch = (request, signal) =>
  fetch(request.url, {
    method: request.method,
    headers: request.headers.map(([name, value]) => [name, value]),
    ...(request.body === undefined ? {} : { body: request.body }),
    redirect: 'manual',
    signal,
  });
