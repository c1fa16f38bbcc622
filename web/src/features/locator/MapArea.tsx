import { lazy, Suspense, useEffect, useState } from "react";
import { ErrorBoundary } from "../../components/ErrorBoundary";
import { mapStyleUrl } from "../../lib/config";
import { MapAttribution } from "./MapAttribution";
import { MAP_LOAD_MESSAGE } from "./messages";
import type { StoreMapProps } from "./map/types";

const StoreMap = lazy(() => import("./map/StoreMap"));

function Placeholder() {
  return <div className="flex h-full items-center justify-center bg-slate-100 text-gray-600">Loading...</div>;
}

/** The map, loaded as its own chunk; "Loading..." while it loads and when it fails. */
export function MapArea(props: StoreMapProps) {
  const [failed, setFailed] = useState(false);
  // The map (MapLibre, WebGL) starts once the page has painted and the main thread is idle, so
  // the header and the results come first.
  const [start, setStart] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === "function") {
      const id = window.requestIdleCallback(() => setStart(true), { timeout: 1500 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(() => setStart(true), 200);
    return () => window.clearTimeout(id);
  }, []);
  return (
    <div className="absolute inset-0">
      {failed || !start ? (
        <Placeholder />
      ) : (
        <ErrorBoundary
          fallback={<Placeholder />}
          onError={(error) => {
            console.error(MAP_LOAD_MESSAGE, error);
          }}
        >
          <Suspense fallback={<Placeholder />}>
            <StoreMap {...props} onError={() => setFailed(true)} />
          </Suspense>
        </ErrorBoundary>
      )}
      {!mapStyleUrl() && <MapAttribution />}
    </div>
  );
}
