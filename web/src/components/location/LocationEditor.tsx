import { lazy, Suspense, useState } from "react";
import { ErrorBoundary } from "../ErrorBoundary";
import { Field } from "../ui/field";
import type { Coordinates } from "./coordinates";

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
  error,
  onMarkerMove,
  onLatitudeChange,
  onLongitudeChange,
}: {
  latitude: string;
  longitude: string;
  position: Coordinates | null;
  error?: string;
  onMarkerMove: (position: Coordinates) => void;
  onLatitudeChange: (text: string) => void;
  onLongitudeChange: (text: string) => void;
}) {
  const [mapFailed, setMapFailed] = useState(false);
  const unavailable = <MapFallback text="The map is unavailable; type the coordinates instead." />;
  return (
    <div className="flex flex-col gap-3">
      <div className="relative h-64 overflow-hidden rounded-md border border-gray-300 sm:h-72">
        {mapFailed ? (
          unavailable
        ) : (
          <ErrorBoundary fallback={unavailable} onError={(e) => console.error("Could not load the map", e)}>
            <Suspense fallback={<MapFallback text="Loading the map…" />}>
              <LocationPicker position={position} onChange={onMarkerMove} onError={() => setMapFailed(true)} />
            </Suspense>
          </ErrorBoundary>
        )}
      </div>
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
