"""Whist Club: the whist family of card games."""

__version__ = "0.1.0"
