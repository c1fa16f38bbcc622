import { vi } from "vitest";

export interface Call {
  method: string;
  path: string;
  /** The query parameters. */
  query: URLSearchParams;
  body: unknown;
  credentials: RequestCredentials;
}

type Answer = { status?: number; body?: unknown } | Error;

/**
 * Stubs fetch with a route table: "METHOD /api/path" -> answer (or a function of the call).
 * Unknown routes answer 404. Returns the recorded calls, bodies parsed as JSON.
 */
export function stubApi(routes: Record<string, Answer | ((call: Call) => Answer)>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (request: Request) => {
    const type = request.headers.get("Content-Type") ?? "";
    // An image body (the photo upload) is recorded as its type and size.
    const image = request.body && type.startsWith("image/") ? { type, size: (await request.arrayBuffer()).byteLength } : undefined;
    const text = request.body && !image ? await request.text() : "";
    const call: Call = {
      method: request.method,
      path: new URL(request.url).pathname,
      query: new URL(request.url).searchParams,
      body: image ?? (text ? parsed(text, type) : undefined),
      credentials: request.credentials,
    };
    calls.push(call);
    const route = routes[`${call.method} ${call.path}`];
    const answer = typeof route === "function" ? route(call) : route;
    if (answer instanceof Error) throw new TypeError(answer.message);
    const { status = 200, body = {} } = answer ?? { status: 404, body: { message: "Not found" } };
    // A 204 (or 205, 304) has no body, as a server answers it.
    const empty = status === 204 || status === 205 || status === 304;
    return new Response(empty ? null : JSON.stringify(body), { status, headers: empty ? {} : { "Content-Type": "application/json" } });
  });
  vi.stubGlobal("fetch", fetch);
  return calls;
}

/** A JSON body parsed; any other text (a CSV upload) as it is. */
function parsed(text: string, type: string): unknown {
  return type.startsWith("text/") ? text : (JSON.parse(text) as unknown);
}

/** The calls without their query, for comparing whole calls. */
export function sent(calls: Call[]) {
  return calls.map(({ method, path, body, credentials }) => ({ method, path, body, credentials }));
}
