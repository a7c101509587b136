"""`pnpgen serve`: the designer's studio, a live preview of a kit in the browser on 127.0.0.1."""
