"""The web app: a JSON API over the rules, solver and players, and a single-page front end."""

from boardlab.web.app import create_app

__all__ = ["create_app"]
