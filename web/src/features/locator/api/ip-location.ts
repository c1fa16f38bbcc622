import { requestJson } from "../../../api/http";

/** GET geo/ip-location: the visitor's approximate position, or a failure (404) when unknown. */
export async function ipLocation(signal?: AbortSignal): Promise<{ latitude: number; longitude: number }> {
  const answer = await requestJson<{ latitude: number; longitude: number }>("/geo/ip-location", { signal });
  if (!Number.isFinite(answer.latitude) || !Number.isFinite(answer.longitude)) throw new Error("no IP location");
  return answer;
}
