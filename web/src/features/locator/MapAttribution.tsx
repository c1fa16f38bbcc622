import { useQuery } from "@tanstack/react-query";
import { useNoStreetsMessage } from "../../components/map/streets";
import { attributionOptions, mapAttribution } from "./api/attribution";
import type { Camera } from "./map/projection";

/**
 * Credits for the offline basemap (Natural Earth, US Census Bureau, OpenStreetMap) and the server's data
 * (GeoNames, from /api/attribution), drawn over the map from the first paint.
 */
/** Licences that ask for no notice: named in the link's title, not in the line over the map. */
const PUBLIC_DOMAIN = /^public domain$/i;

/**
 * `camera` is where the map shown looks: at street zooms outside the offline basemap's street
 * areas a line above the credits says that the map has no streets there (components/map/streets).
 */
export function MapAttribution({ camera }: { camera?: Camera }) {
  const server = useQuery(attributionOptions());
  const sources = mapAttribution(server.data ?? [], true);
  const noStreets = useNoStreetsMessage(camera ?? { latitude: 0, longitude: 0, zoom: 0 });
  return (
    <div className="absolute bottom-[4.25rem] left-1 z-10 flex max-w-[calc(100%-0.5rem)] flex-col items-start gap-1 md:right-1 md:bottom-1 md:left-auto md:items-end">
      {noStreets && (
        <p data-part="no-streets" className="max-w-80 rounded bg-white/90 px-1.5 py-0.5 text-xs leading-snug text-gray-900 shadow-sm">
          {noStreets}
        </p>
      )}
      <p className="rounded bg-white/85 px-1.5 py-0.5 text-[10px] leading-tight text-gray-800">
        {sources.map((s, i) => (
          <span key={s.name}>
            {i > 0 && " | "}
            <a href={s.url} target="_blank" rel="noopener noreferrer" className="underline" title={s.license ?? undefined}>
              {s.name}
            </a>
            {s.license && !PUBLIC_DOMAIN.test(s.license) && ` (${s.license})`}
          </span>
        ))}
      </p>
    </div>
  );
}
