/**
 * Where Directions goes: Apple Maps on iPhone, iPad and Mac (it opens the Maps app), Google Maps
 * everywhere else (its universal link opens the Google Maps app on Android when installed, the
 * web site otherwise). `geo:` URIs are not used: desktop browsers and iOS do not handle them.
 */
export function directionsUrl(latitude: number, longitude: number, userAgent = navigator.userAgent): string {
  const destination = `${latitude},${longitude}`;
  if (/iPhone|iPad|iPod|Macintosh/.test(userAgent)) {
    return `https://maps.apple.com/?daddr=${encodeURIComponent(destination)}&dirflg=d`;
  }
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(destination)}`;
}
