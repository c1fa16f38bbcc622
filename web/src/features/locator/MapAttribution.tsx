import { useQuery } from "@tanstack/react-query";
import { attributionOptions, mapAttribution } from "./api/attribution";

/**
 * Credits for the offline basemap (Natural Earth, US Census Bureau, OpenStreetMap) and the server's data
 * (GeoNames, from /api/attribution), drawn over the map from the first paint.
 */
/** Licences that ask for no notice: named in the link's title, not in the line over the map. */
const PUBLIC_DOMAIN = /^public domain$/i;

export function MapAttribution() {
  const server = useQuery(attributionOptions());
  const sources = mapAttribution(server.data ?? [], true);
  return (
    <p className="absolute bottom-[4.25rem] left-1 z-10 max-w-[calc(100%-0.5rem)] md:right-1 md:bottom-1 md:left-auto rounded bg-white/85 px-1.5 py-0.5 text-[10px] leading-tight text-gray-800">
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
  );
}
