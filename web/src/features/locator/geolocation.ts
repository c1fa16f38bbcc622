import { ipLocationAvailable } from "../../lib/config";
import { GEOLOCATION_ATTEMPTS, GEOLOCATION_OPTIONS, GEOLOCATION_RETRY_DELAY_MS } from "../../lib/constants";
import { ipLocation } from "./api/ip-location";

export interface LatLon {
  latitude: number;
  longitude: number;
}

const POSITION_UNAVAILABLE = 2;

function once(geo: Geolocation): Promise<LatLon> {
  return new Promise((resolve, reject) => {
    geo.getCurrentPosition(
      (p) => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude }),
      (e) => reject(Object.assign(new Error(e.message), { code: e.code })),
      GEOLOCATION_OPTIONS,
    );
  });
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The browser's position: no high accuracy, 10 s timeout, 60 s max age;
 * code 2 (position unavailable) is retried after 2 s, up to 2 attempts in all.
 */
export async function browserPosition(geo: Geolocation | undefined = navigator.geolocation): Promise<LatLon> {
  if (!geo) throw new Error("geolocation unavailable");
  for (let attempt = 1; ; attempt++) {
    try {
      return await once(geo);
    } catch (error) {
      const code = (error as { code?: number } | undefined)?.code;
      if (code !== POSITION_UNAVAILABLE || attempt >= GEOLOCATION_ATTEMPTS) throw error;
      await wait(GEOLOCATION_RETRY_DELAY_MS);
    }
  }
}

/**
 * Browser geolocation, then the IP lookup when the server has one (runtime config); null when
 * both fail (the default centre stays).
 */
export async function locateVisitor(geo?: Geolocation, withIp = ipLocationAvailable()): Promise<LatLon | null> {
  try {
    return await browserPosition(geo);
  } catch {
    if (!withIp) return null;
    try {
      return await ipLocation();
    } catch {
      return null;
    }
  }
}
