import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { ruleKeys } from "../../../api/keys";

const round = (n: number) => Math.round(n * 100) / 100;

/** GET rules: the rulebook at the shopper's place (minimum age, whether shipping is allowed). */
export function placeRulesOptions(latitude: number, longitude: number) {
  const [lat, lon] = [round(latitude), round(longitude)];
  return queryOptions({
    queryKey: ruleKeys.place(lat, lon),
    queryFn: async () => unwrap(await api.GET("/rules", { params: { query: { latitude: lat, longitude: lon } } })),
    staleTime: 60 * 60 * 1000,
  });
}
