/** A position in degrees (WGS 84). */
export interface Coordinates {
  latitude: number;
  longitude: number;
}

/** Coordinates shown in the fields: 6 decimals (about 10 cm). */
export function formatCoordinate(value: number): string {
  return value.toFixed(6);
}

/** A typed coordinate: a finite number within [-limit, limit], or undefined. */
export function parseCoordinate(text: string, limit: number): number | undefined {
  const trimmed = text.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) && Math.abs(value) <= limit ? value : undefined;
}

/** Both fields parsed, or undefined when either is empty or out of range. */
export function parseCoordinates(latitude: string, longitude: string): Coordinates | undefined {
  const lat = parseCoordinate(latitude, 90);
  const lon = parseCoordinate(longitude, 180);
  return lat === undefined || lon === undefined ? undefined : { latitude: lat, longitude: lon };
}
