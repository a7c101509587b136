"""The built-in templates every kit falls back to (pnpgen.templates): setup.py maps this folder into the
package, so the clone's editable install reads it in place and a wheel carries a copy. Found through
pnpgen.resources."""
