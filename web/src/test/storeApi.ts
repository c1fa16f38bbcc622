import { vi } from "vitest";
import type { Rule, StoreList, StoreWithDistance } from "../api/types";
import { listItemOf } from "./fixtures";

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/**
 * A fetch stub of the store calls as the server answers them: the search lists `stores` in the
 * list's lighter form with each of their rules once; GET store/physical-store/{id} answers the
 * whole store (after `wholeAfter`, when given); anything else is a 404. `licenceRegistry` is the
 * answer's licence_registry (whether a licence registry covers the area).
 */
export function stubStoreApi(
  stores: readonly StoreWithDistance[],
  { hasMore = false, wholeAfter, licenceRegistry = true }: { hasMore?: boolean; wholeAfter?: Promise<unknown>; licenceRegistry?: boolean } = {},
) {
  const rules: Rule[] = [];
  for (const s of stores) for (const r of s.rules ?? []) if (!rules.some((o) => o.id === r.id)) rules.push(r);
  const list: StoreList = { physical_stores: stores.map(listItemOf), has_more: hasMore, rules, licence_registry: licenceRegistry };
  const fetch = vi.fn(async (request: Request) => {
    const path = new URL(request.url).pathname;
    if (path.endsWith("/list-physical-store/")) return json(list);
    const one = /\/store\/physical-store\/(\d+)$/.exec(path);
    const store = one && stores.find((s) => s.id === Number(one[1]));
    if (store) {
      await wholeAfter;
      // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the one-store answer has no distance
      const { distance, ...whole } = store;
      return json(whole);
    }
    return json({ message: "not found" }, 404);
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}
