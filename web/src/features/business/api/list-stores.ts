import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { businessKeys } from "../../../api/keys";

/** GET business/stores: the stores linked to the account. */
export function businessStoresOptions() {
  return queryOptions({
    queryKey: businessKeys.stores,
    queryFn: async ({ signal }) => unwrap(await api.GET("/business/stores", { credentials: "include", signal })).stores,
    staleTime: 0,
  });
}
