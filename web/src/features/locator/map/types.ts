import type { PhysicalStore } from "../../../api/types";

/** Where the map should look; it moves when `key` changes. No zoom keeps the current zoom. */
export interface MapView {
  latitude: number;
  longitude: number;
  zoom?: number;
  key: string;
}

export interface StoreMapProps {
  stores: readonly PhysicalStore[];
  selectedId: number | null;
  view: MapView;
  /** The selected store; brought into view when off screen. */
  focus: { latitude: number; longitude: number } | null;
  onSelect: (id: number) => void;
  /** The map centre after each move; `byUser` is false for moves the app made. */
  onCenterChange: (center: { latitude: number; longitude: number }, byUser: boolean) => void;
  onError?: () => void;
}

/** Store clustering, shared by the MapLibre source and the static preview. */
export const CLUSTER_RADIUS = 48;
export const CLUSTER_MAX_ZOOM = 15;
