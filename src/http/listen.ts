import { serve, type ServerType } from "@hono/node-server";

/**
 * Starts a node HTTP server for a fetch handler and resolves once it listens; a failure to
 * listen (EADDRINUSE) rejects instead of raising an unhandled 'error' event.
 */
export function listen(options: Parameters<typeof serve>[0]): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve(options, () => resolve(server));
    server.once("error", reject);
  });
}
