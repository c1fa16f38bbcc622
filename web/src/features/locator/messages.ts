/** Logged when the map cannot load; a fixed product text (web/README.md, "Product rules"). */
export const MAP_LOAD_MESSAGE = "The map could not be loaded. Please check the API key or the network connection.";
