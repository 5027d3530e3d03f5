"""Runnable examples of padax (`python -m padax.examples.<name>`)."""
