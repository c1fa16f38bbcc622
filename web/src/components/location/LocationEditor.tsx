import { lazy, Suspense, useState } from "react";
import { ErrorBoundary } from "../ErrorBoundary";
import { Field } from "../ui/field";
import type { Coordinates } from "./coordinates";
import { NO_STREETS } from "./streets";

const LocationPicker = lazy(() => import("./LocationPicker"));

function MapFallback({ text }: { text: string }) {
  return <div className="flex h-full items-center justify-center bg-slate-100 p-4 text-center text-sm text-gray-700">{text}</div>;
}

/**
 * A store's position: a small map with a draggable marker (lazy chunk) and latitude/longitude
 * fields kept in step with it. The fields are the keyboard way to set the position. Moderators
 * place a claimed store with it (features/admin), owners move their store's pin (features/business).
 */
export function LocationEditor({
  latitude,
  longitude,
  position,
  center,
  error,
  noStreets = NO_STREETS,
  onMarkerMove,
  onLatitudeChange,
  onLongitudeChange,
}: {
  latitude: string;
  longitude: string;
  position: Coordinates | null;
  /** Where the map starts without a position. */
  center?: Coordinates | null;
  error?: string;
  /** What to say when the map under the pin shows no streets. */
  noStreets?: string;
  onMarkerMove: (position: Coordinates) => void;
  onLatitudeChange: (text: string) => void;
  onLongitudeChange: (text: string) => void;
}) {
  const [mapFailed, setMapFailed] = useState(false);
  const [streets, setStreets] = useState<boolean | null>(null);
  const unavailable = <MapFallback text="The map is unavailable; type the coordinates instead." />;
  return (
    <div className="flex flex-col gap-3">
      <div className="relative h-64 overflow-hidden rounded-md border border-gray-300 sm:h-72">
        {mapFailed ? (
          unavailable
        ) : (
          <ErrorBoundary fallback={unavailable} onError={(e) => console.error("Could not load the map", e)}>
            <Suspense fallback={<MapFallback text="Loading the map…" />}>
              <LocationPicker
                position={position}
                center={center}
                onChange={onMarkerMove}
                onError={() => setMapFailed(true)}
                onStreets={setStreets}
              />
            </Suspense>
          </ErrorBoundary>
        )}
      </div>
      {streets === false && !mapFailed && (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          {noStreets}
        </p>
      )}
      <div className="grid grid-cols-2 gap-3">
        {(
          [
            ["Latitude", latitude, onLatitudeChange],
            ["Longitude", longitude, onLongitudeChange],
          ] as const
        ).map(([label, value, onChange]) => (
          <Field
            key={label}
            label={label}
            inputMode="decimal"
            autoComplete="off"
            value={value}
            aria-invalid={error ? true : undefined}
            onChange={(e) => onChange(e.target.value)}
          />
        ))}
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
