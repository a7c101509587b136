"""The built-in kits, one folder each (pnpgen.data): setup.py maps this folder into the package, so the
clone's editable install reads it in place and a wheel carries a copy. Found through pnpgen.resources."""
