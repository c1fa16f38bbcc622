import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LocateFixed, MapPin, Search } from "lucide-react";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { cn } from "../../lib/cn";
import { placeSearchHint } from "../../lib/config";
import { PLACE_SEARCH_DEBOUNCE_MS } from "../../lib/constants";
import { searchPlacesOptions, type Place, type PlaceAnswer } from "./api/search-places";
import { useDebounced } from "./useDebounced";

export const CURRENT_LOCATION = "Use my current location";

type Option = { kind: "place"; place: Place } | { kind: "current" };

/**
 * The place search box: suggestions from search-places, debounced 1 s; Enter searches at once and
 * goes to the best place. When the search fails the only option is the current location. ARIA
 * combobox with a listbox.
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
  const id = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const trimmed = value.trim();
  const debounced = useDebounced(trimmed, PLACE_SEARCH_DEBOUNCE_MS);
  // Enter before the suggestions came (m4): the text is searched at once, without waiting out
  // the debounce, and its best place is chosen when the answer arrives (onKeyDown).
  const [entered, setEntered] = useState<string | null>(null);
  const typed = useRef(value); // what the shopper typed last (an answer for older text is dropped)
  const queryClient = useQueryClient();
  const pending = entered !== null && entered === trimmed;
  const term = pending ? trimmed : debounced;
  const enabled = (open || pending) && term.length >= 2 && term === trimmed;
  const places = useQuery({ ...searchPlacesOptions(term, near), enabled });
  const note = enabled && places.isSuccess ? places.data.note : "";

  const options: Option[] = !enabled
    ? []
    : places.isError
      ? [{ kind: "current" }]
      : (places.data?.places ?? []).map((place) => ({ kind: "place" as const, place }));
  const expanded = open && enabled && (options.length > 0 || places.isFetching || places.isSuccess);

  const choose = (option: Option) => {
    setOpen(false);
    setActive(-1);
    setEntered(null);
    if (option.kind === "current") onCurrentLocation();
    else onChoose(option.place);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (options.length === 0 ? -1 : (i + 1) % options.length));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((i) => (options.length === 0 ? -1 : (i - 1 + options.length) % options.length));
    } else if (event.key === "Enter") {
      const option = options[active] ?? (options.length > 0 ? options[0] : undefined);
      if (option && expanded) {
        event.preventDefault();
        choose(option);
      } else if (trimmed.length >= 2) {
        event.preventDefault();
        const text = trimmed;
        setEntered(text);
        const goToBest = (answer: PlaceAnswer | null) => {
          if (typed.current.trim() !== text) return;
          const best = answer?.places[0];
          if (best) choose({ kind: "place", place: best });
          else setOpen(true); // the list says "No places found" (or offers the current location)
        };
        void queryClient.fetchQuery(searchPlacesOptions(text, near)).then(goToBest, () => goToBest(null));
      }
    } else if (event.key === "Escape") {
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className="relative w-full">
      <label htmlFor={`${id}-input`} className="sr-only">
        Search for a place
      </label>
      <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-gray-500" />
      <input
        id={`${id}-input`}
        type="text"
        enterKeyHint="search"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? `${id}-opt-${active}` : undefined}
        autoComplete="off"
        placeholder={placeSearchHint()}
        value={value}
        onChange={(e) => {
          typed.current = e.target.value;
          onValueChange(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className="w-full rounded-md border border-gray-300 bg-white py-2 pr-3 pl-9 text-sm text-gray-900 placeholder:text-gray-500 focus:border-emerald-700 focus:outline-2 focus:outline-emerald-700"
      />
      <ul
        id={`${id}-list`}
        role="listbox"
        aria-label="Places"
        className={cn(
          "absolute inset-x-0 top-full z-40 mt-1 max-h-72 overflow-y-auto rounded-md border border-gray-200 bg-white py-1 shadow-lg",
          !expanded && "hidden",
        )}
      >
        {note && (
          <li role="presentation" className="border-b border-gray-100 px-3 py-2 text-sm text-gray-700">
            {note}
          </li>
        )}
        {options.map((option, i) => (
          <li
            key={option.kind === "current" ? "current" : `${option.place.display_name}-${i}`}
            id={`${id}-opt-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(option)}
            className={cn("flex cursor-pointer items-start gap-2 px-3 py-2 text-sm text-gray-900", i === active ? "bg-emerald-50" : "hover:bg-gray-50")}
          >
            {option.kind === "current" ? (
              <>
                <LocateFixed aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-700" />
                {CURRENT_LOCATION}
              </>
            ) : (
              <>
                <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gray-500" />
                {option.place.display_name}
              </>
            )}
          </li>
        ))}
        {expanded && options.length === 0 && !note && (
          <li role="presentation" className="px-3 py-2 text-sm text-gray-600">
            {places.isFetching ? "Searching..." : "No places found"}
          </li>
        )}
      </ul>
    </div>
  );
}
