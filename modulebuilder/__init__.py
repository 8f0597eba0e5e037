"""modulebuilder: counters, sheets, maps and VASSAL modules from YAML game definitions."""
__version__ = "0.1.0"
