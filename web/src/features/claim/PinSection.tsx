import { useState } from "react";
import { formatCoordinate, parseCoordinates, type Coordinates } from "../../components/location/coordinates";
import { LocationEditor } from "../../components/location/LocationEditor";
import { Button } from "../../components/ui/button";
import { locateAddress, type LocatePayload, type Located } from "./api/locate";
import {
  DEVICE_FAILED,
  DEVICE_LOCATING,
  PIN_INTRO,
  PIN_NO_STREETS,
  PIN_TITLE,
  locatedText,
  pinnedText,
  roughDeviceText,
} from "./messages";

/** The owner's pin as the wizard keeps it: text fields, "" for none. */
export interface PinValues {
  latitude: string;
  longitude: string;
  source: "" | "map" | "device";
}

/** Farther than this (metres) the device's fix is called rough and the owner is asked to check it. */
const ROUGH_FIX_M = 100;

/** The browser's position, as precise as it can (the owner stands at the door). */
function devicePosition(): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) => {
    if (!("geolocation" in navigator)) {
      reject(new Error("this browser cannot tell its location"));
      return;
    }
    navigator.geolocation.getCurrentPosition(resolve, reject, { enableHighAccuracy: true, timeout: 15_000, maximumAge: 0 });
  });
}

/**
 * Step 4's pin (an addition to the spec's wizard, docs/claims.md "Where the store stands"): the
 * owner places the store's pin on a map, or takes the device's location while at the store.
 * Without it, a store the address places only at its ZIP or city centre waits for a moderator to
 * place the pin before it is published. The map starts where the address is found; the default
 * map has no streets, which the picker then says.
 */
export function PinSection({ address, pin, onPin }: { address: LocatePayload; pin: PinValues; onPin: (pin: PinValues) => void }) {
  const placed = parseCoordinates(pin.latitude, pin.longitude);
  const [open, setOpen] = useState(placed !== undefined);
  const [located, setLocated] = useState<Located | null>(null);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);

  const center: Coordinates | null = located?.found ? { latitude: located.latitude, longitude: located.longitude } : null;

  const openMap = async () => {
    setOpen(true);
    setStatus("");
    try {
      const answer = await locateAddress(address);
      setLocated(answer);
    } catch {
      setLocated(null); // the map still opens, on the whole country
    }
  };

  const atTheStore = async () => {
    setBusy(true);
    setStatus(DEVICE_LOCATING);
    try {
      const fix = await devicePosition();
      const at = { latitude: fix.coords.latitude, longitude: fix.coords.longitude };
      onPin({ latitude: formatCoordinate(at.latitude), longitude: formatCoordinate(at.longitude), source: "device" });
      setOpen(true);
      setStatus(fix.coords.accuracy > ROUGH_FIX_M ? roughDeviceText(fix.coords.accuracy) : "");
    } catch (error) {
      const why = error instanceof Error ? error.message : (error as GeolocationPositionError | undefined)?.message;
      setStatus(`${DEVICE_FAILED}${why ? ` (${why})` : ""}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="claim-pin-title" className="flex flex-col gap-3 rounded-md border border-gray-200 p-3 sm:col-span-2">
      <h2 id="claim-pin-title" className="text-base font-semibold text-gray-900">
        {PIN_TITLE}
      </h2>
      <p className="text-sm text-gray-700">{PIN_INTRO}</p>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => void atTheStore()} disabled={busy}>
          I&apos;m at the store now
        </Button>
        {!open && (
          <Button variant="outline" onClick={() => void openMap()}>
            Place the pin on the map
          </Button>
        )}
        {placed && (
          <Button variant="outline" onClick={() => onPin({ latitude: "", longitude: "", source: "" })}>
            Remove the pin
          </Button>
        )}
      </div>
      {status !== "" && (
        <p role="status" className="text-sm text-gray-800">
          {status}
        </p>
      )}
      {located && !placed && <p className="text-sm text-gray-800">{locatedText(located)}</p>}
      {placed && (
        <p role="status" className="text-sm text-emerald-900">
          {pinnedText(placed, pin.source)}
        </p>
      )}
      {open && (
        <LocationEditor
          latitude={pin.latitude}
          longitude={pin.longitude}
          position={placed ?? null}
          center={center}
          noStreets={PIN_NO_STREETS}
          onMarkerMove={(at) => onPin({ latitude: formatCoordinate(at.latitude), longitude: formatCoordinate(at.longitude), source: "map" })}
          onLatitudeChange={(value) => onPin({ ...pin, latitude: value, source: "map" })}
          onLongitudeChange={(value) => onPin({ ...pin, longitude: value, source: "map" })}
        />
      )}
    </section>
  );
}
