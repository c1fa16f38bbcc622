import { apiBase } from "../lib/config";
import { ApiError } from "./client";

export interface RequestOptions {
  method?: "GET" | "POST" | "DELETE";
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Send the session cookie (the spec's calls "with credentials"). */
  credentials?: boolean;
  signal?: AbortSignal;
}

/**
 * A JSON call for endpoints that are not in api/openapi.yaml yet. Callers type the answer in
 * their own endpoint file and move to the typed client (`api`) once the schema has the path.
 * Status 400 to 599 and network errors throw ApiError (status 0 for the network).
 */
export async function requestJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const url = new URL(apiBase + path);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  const init: RequestInit = {
    method: options.method ?? "GET",
    credentials: options.credentials ? "include" : "same-origin",
    signal: options.signal,
    headers: { Accept: "application/json" },
  };
  if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
    init.headers = { Accept: "application/json", "Content-Type": "application/json" };
  }
  let response: Response;
  try {
    response = await globalThis.fetch(new Request(url, init));
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, error instanceof Error ? error.message : "Network error");
  }
  const text = await response.text();
  let data: unknown = undefined;
  if (text !== "") {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (response.status >= 400) {
    const message =
      typeof data === "object" && data !== null && "message" in data && typeof data.message === "string"
        ? data.message
        : `Request failed with status ${response.status}`;
    throw new ApiError(response.status, message);
  }
  return data as T;
}
