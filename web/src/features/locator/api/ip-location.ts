import { api, unwrap } from "../../../api/client";

/** GET geo/ip-location: the visitor's approximate position, or a failure (404) when unknown. */
export async function ipLocation(signal?: AbortSignal): Promise<{ latitude: number; longitude: number }> {
  const { latitude, longitude } = unwrap(await api.GET("/geo/ip-location", { signal }));
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) throw new Error("no IP location");
  return { latitude, longitude };
}
