"""The games BoardLab knows; each registers itself in the core registry on import."""
