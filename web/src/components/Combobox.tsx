import { useCallback, useId, useState, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "../lib/cn";

/** Whether the list is open and which option is active: the owner reads `open` to decide whether to ask for options. */
export function useComboboxState() {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const close = useCallback(() => {
    setOpen(false);
    setActive(-1);
  }, []);
  return { open, setOpen, active, setActive, close };
}

export type ComboboxState = ReturnType<typeof useComboboxState>;

/**
 * A text box with suggestions (the ARIA 1.2 combobox with a listbox): the place search and the
 * product search. The owner fetches the options and says whether the list shows (`expanded`);
 * this handles the keys (arrows move, Enter chooses the active option or the first, Escape
 * closes), the pointer (an option is chosen without the box losing its focus first) and the ARIA
 * wiring. Enter with no list shown goes to `onEnter`, which calls preventDefault when it acts.
 */
export function Combobox<T>({
  state,
  label,
  listLabel,
  placeholder,
  icon,
  value,
  onValueChange,
  options,
  optionKey,
  renderOption,
  onChoose,
  expanded,
  note,
  emptyText,
  onEnter,
  after,
}: {
  state: ComboboxState;
  /** The box's accessible name (said, not shown: the placeholder shows). */
  label: string;
  listLabel: string;
  placeholder: string;
  /** Drawn at the box's start. */
  icon: ReactNode;
  value: string;
  onValueChange: (text: string) => void;
  options: readonly T[];
  optionKey: (option: T, index: number) => string;
  renderOption: (option: T) => ReactNode;
  onChoose: (option: T) => void;
  expanded: boolean;
  /** A line above the options (the server's note). */
  note?: string;
  /** The line the list shows without options (searching, nothing found). */
  emptyText: string;
  onEnter?: (event: KeyboardEvent<HTMLInputElement>) => void;
  /** Drawn at the box's end, over it (a clear button). */
  after?: ReactNode;
}) {
  const id = useId();
  const { active, setOpen, setActive, close } = state;

  const choose = (option: T) => {
    close();
    onChoose(option);
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
      if (option !== undefined && expanded) {
        event.preventDefault();
        choose(option);
      } else {
        onEnter?.(event);
      }
    } else if (event.key === "Escape") {
      close();
    }
  };

  return (
    <div className="relative w-full">
      <label htmlFor={`${id}-input`} className="sr-only">
        {label}
      </label>
      {icon}
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
        placeholder={placeholder}
        value={value}
        onChange={(e) => {
          onValueChange(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className={cn(
          "w-full rounded-md border border-gray-300 bg-white py-2 pl-9 text-sm text-gray-900 placeholder:text-gray-500 focus:border-emerald-700 focus:outline-2 focus:outline-emerald-700",
          after ? "pr-9" : "pr-3",
        )}
      />
      {after}
      <ul
        id={`${id}-list`}
        role="listbox"
        aria-label={listLabel}
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
            key={optionKey(option, i)}
            id={`${id}-opt-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(option)}
            className={cn("flex cursor-pointer items-start gap-2 px-3 py-2 text-sm text-gray-900", i === active ? "bg-emerald-50" : "hover:bg-gray-50")}
          >
            {renderOption(option)}
          </li>
        ))}
        {expanded && options.length === 0 && !note && (
          <li role="presentation" className="px-3 py-2 text-sm text-gray-600">
            {emptyText}
          </li>
        )}
      </ul>
    </div>
  );
}
