/** Logged when the map cannot load (spec section 8). */
export const MAP_LOAD_MESSAGE = "The map could not be loaded. Please check the API key or the network connection.";
