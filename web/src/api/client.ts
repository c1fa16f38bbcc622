import createClient from "openapi-fetch";
import { apiBase } from "../lib/config";
import type { paths } from "./schema";

/**
 * Typed client for the Locator API (types generated from api/openapi.yaml by `npm run gen:api`).
 * fetch is looked up at call time so tests can stub the global.
 */
export const api = createClient<paths>({
  baseUrl: apiBase,
  fetch: (request) => globalThis.fetch(request),
});

/** A failed call: status 400 to 599 or a network error, with the server's message if any. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

/**
 * What to tell a user about a failed call: the server's message, or `unreachable` when no answer
 * came (status 0) or the error is not a call's.
 */
export function failureText(error: unknown, unreachable = "the server could not be reached"): string {
  return error instanceof ApiError && error.status !== 0 ? error.message : unreachable;
}

/** Turns openapi-fetch's result into data or a thrown ApiError (for TanStack Query). */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || result.data === undefined) {
    throw new ApiError(result.response.status, errorMessage(result.error, result.response));
  }
  return result.data;
}

function errorMessage(error: unknown, response: Response): string {
  if (typeof error === "object" && error !== null && "message" in error) {
    const { message } = error;
    if (typeof message === "string" && message !== "") return message;
  }
  return `Request failed with status ${response.status}`;
}
