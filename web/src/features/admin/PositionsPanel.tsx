import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { failureText } from "../../api/client";
import { formatCoordinate, parseCoordinates, type Coordinates } from "../../components/location/coordinates";
import { LocationEditor } from "../../components/location/LocationEditor";
import { Loaded } from "../../components/Loaded";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { Notice } from "../../components/ui/outcome";
import { approximateKey, approximateStoresOptions, placeStore, type ApproximateStore } from "./api/approximate-stores";
import { COORDINATES_INVALID, MODERATOR_NO_STREETS } from "./messages";
import { isUnauthorized, useSignedOutOn } from "./unauthorized";

/**
 * "Stores to place" in /admin: every published store whose position is only a ZIP or city centre
 * (an import without coordinates, an approval from before the pin rule), so a moderator places
 * its pin; the store then stands there with precision exact and leaves the list.
 */
export function PositionsPanel({ onUnauthorized }: { onUnauthorized: () => void }) {
  const list = useQuery(approximateStoresOptions());
  const [openId, setOpenId] = useState<number | null>(null);
  const [notice, setNotice] = useState("");
  useSignedOutOn([list.error], onUnauthorized);
  return (
    <section aria-labelledby="positions-heading" className="flex flex-col gap-4">
      <h2 id="positions-heading" className="text-base font-semibold text-gray-900">
        Published stores at a ZIP or city centre
      </h2>
      <p className="text-sm text-gray-700">
        These stores stand where their address was found only approximately, which can be miles from their door. Place each pin on
        the store.
      </p>
      <Notice notice={notice} />
      <Loaded query={list} loading="Loading stores…" failed="Could not load the stores to place">
        {(data) =>
          data.stores.length === 0 ? (
            <p className="text-gray-700">Every published store has a placed pin.</p>
          ) : (
            <>
              <p className="text-sm text-gray-700">
                {data.total === data.stores.length ? `${data.total} ${data.total === 1 ? "store" : "stores"}` : `The first ${data.stores.length} of ${data.total} stores`}
              </p>
              <ul aria-label="Stores to place" className="flex flex-col gap-3">
                {data.stores.map((s) => (
                  <li key={s.id} className="rounded-md border border-gray-200 bg-white p-3">
                    <StoreToPlace
                      store={s}
                      open={openId === s.id}
                      onOpen={() => setOpenId(openId === s.id ? null : s.id)}
                      onPlaced={(message) => {
                        setNotice(message);
                        setOpenId(null);
                      }}
                      onUnauthorized={onUnauthorized}
                    />
                  </li>
                ))}
              </ul>
            </>
          )
        }
      </Loaded>
    </section>
  );
}

function StoreToPlace({
  store,
  open,
  onOpen,
  onPlaced,
  onUnauthorized,
}: {
  store: ApproximateStore;
  open: boolean;
  onOpen: () => void;
  onPlaced: (message: string) => void;
  onUnauthorized: () => void;
}) {
  const queryClient = useQueryClient();
  const [latitude, setLatitude] = useState(formatCoordinate(store.latitude));
  const [longitude, setLongitude] = useState(formatCoordinate(store.longitude));
  const [position, setPosition] = useState<Coordinates | null>({ latitude: store.latitude, longitude: store.longitude });
  const [moved, setMoved] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const place = useMutation({
    mutationFn: (at: Coordinates) => placeStore(store.id, at),
    onSuccess: () => {
      onPlaced(`${store.name} (store #${store.id}) now stands at its pin.`);
      void queryClient.invalidateQueries({ queryKey: approximateKey });
    },
    onError: (e) => {
      if (isUnauthorized(e)) onUnauthorized();
    },
  });
  const where = [store.address, store.city, [store.state, store.postal_code].filter(Boolean).join(" ")].filter((p) => p.trim() !== "").join(", ");
  const save = () => {
    const at = parseCoordinates(latitude, longitude);
    if (!at) {
      setError(COORDINATES_INVALID);
      return;
    }
    place.mutate(at);
  };
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div>
          <h3 className="font-semibold text-gray-900">{store.name}</h3>
          <p className="text-sm text-gray-700">
            {where || "No address"} · store #{store.id} · <strong>{store.precision_text}</strong>
          </p>
        </div>
        <Button variant="outline" aria-expanded={open} onClick={onOpen}>
          {open ? "Close the map" : "Place the pin"}
        </Button>
      </div>
      {open && (
        <>
          <LocationEditor
            latitude={latitude}
            longitude={longitude}
            position={position}
            error={error}
            noStreets={MODERATOR_NO_STREETS}
            onMarkerMove={(at) => {
              setMoved(true);
              setError(undefined);
              setPosition(at);
              setLatitude(formatCoordinate(at.latitude));
              setLongitude(formatCoordinate(at.longitude));
            }}
            onLatitudeChange={(value) => {
              setMoved(true);
              setError(undefined);
              setLatitude(value);
              const at = parseCoordinates(value, longitude);
              if (at) setPosition(at);
            }}
            onLongitudeChange={(value) => {
              setMoved(true);
              setError(undefined);
              setLongitude(value);
              const at = parseCoordinates(latitude, value);
              if (at) setPosition(at);
            }}
          />
          <div>
            <Button onClick={save} disabled={!moved || place.isPending}>
              {place.isPending ? "Saving…" : "Save the pin"}
            </Button>
          </div>
          {place.isError && <FormError>{`Could not save the pin: ${failureText(place.error)}`}</FormError>}
        </>
      )}
    </div>
  );
}
