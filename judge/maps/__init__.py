"""The map engine: the map syntax parsed into an immutable `Map`, and the map in force in a phase."""
from judge.maps.loader import MapCache, load_map
from judge.maps.model import Abut, Location, Map, PowerInfo, Terrain
from judge.maps.parser import map_for_phase, parse_map

__all__ = ["Abut", "Location", "Map", "MapCache", "PowerInfo", "Terrain", "load_map", "map_for_phase", "parse_map"]
