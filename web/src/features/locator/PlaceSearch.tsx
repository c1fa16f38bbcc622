import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LocateFixed, MapPin, Search } from "lucide-react";
import { useRef, useState } from "react";
import { Combobox, useComboboxState } from "../../components/Combobox";
import { placeSearchHint } from "../../lib/config";
import { PLACE_SEARCH_DEBOUNCE_MS } from "../../lib/constants";
import { searchPlacesOptions, type Place, type PlaceAnswer } from "./api/search-places";
import { useDebounced } from "./useDebounced";

export const CURRENT_LOCATION = "Use my current location";

type Option = { kind: "place"; place: Place } | { kind: "current" };

/**
 * The place search box: suggestions from search-places, debounced 1 s; Enter searches at once and
 * goes to the best place. When the search fails the only option is the current location. ARIA
 * combobox with a listbox (components/Combobox).
 */
export function PlaceSearch({
  value,
  onValueChange,
  onChoose,
  onCurrentLocation,
  near,
}: {
  /** The map's centre: nearer places win near-ties. */
  near?: { latitude: number; longitude: number };
  value: string;
  onValueChange: (text: string) => void;
  onChoose: (place: Place) => void;
  onCurrentLocation: () => void;
}) {
  const box = useComboboxState();
  const trimmed = value.trim();
  const debounced = useDebounced(trimmed, PLACE_SEARCH_DEBOUNCE_MS);
  // Enter before the suggestions came (m4): the text is searched at once, without waiting out
  // the debounce, and its best place is chosen when the answer arrives (onEnter).
  const [entered, setEntered] = useState<string | null>(null);
  const typed = useRef(value); // what the shopper typed last (an answer for older text is dropped)
  const queryClient = useQueryClient();
  const pending = entered !== null && entered === trimmed;
  const term = pending ? trimmed : debounced;
  const enabled = (box.open || pending) && term.length >= 2 && term === trimmed;
  const places = useQuery({ ...searchPlacesOptions(term, near), enabled });
  const note = enabled && places.isSuccess ? places.data.note : "";

  const options: Option[] = !enabled
    ? []
    : places.isError
      ? [{ kind: "current" }]
      : (places.data?.places ?? []).map((place) => ({ kind: "place" as const, place }));
  const expanded = box.open && enabled && (options.length > 0 || places.isFetching || places.isSuccess);

  const choose = (option: Option) => {
    box.close();
    setEntered(null);
    if (option.kind === "current") onCurrentLocation();
    else onChoose(option.place);
  };

  return (
    <Combobox
      state={box}
      label="Search for a place"
      listLabel="Places"
      placeholder={placeSearchHint()}
      icon={<Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-gray-500" />}
      value={value}
      onValueChange={(text) => {
        typed.current = text;
        onValueChange(text);
      }}
      options={options}
      optionKey={(option, i) => (option.kind === "current" ? "current" : `${option.place.display_name}-${i}`)}
      renderOption={(option) =>
        option.kind === "current" ? (
          <>
            <LocateFixed aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-700" />
            {CURRENT_LOCATION}
          </>
        ) : (
          <>
            <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gray-500" />
            {option.place.display_name}
          </>
        )
      }
      onChoose={choose}
      expanded={expanded}
      note={note}
      emptyText={places.isFetching ? "Searching..." : "No places found"}
      onEnter={(event) => {
        if (trimmed.length < 2) return;
        event.preventDefault();
        const text = trimmed;
        setEntered(text);
        const goToBest = (answer: PlaceAnswer | null) => {
          if (typed.current.trim() !== text) return;
          const best = answer?.places[0];
          if (best) choose({ kind: "place", place: best });
          else box.setOpen(true); // the list says "No places found" (or offers the current location)
        };
        void queryClient.fetchQuery(searchPlacesOptions(text, near)).then(goToBest, () => goToBest(null));
      }}
    />
  );
}
