"""Component tables: a kit's pieces declared as rows (YAML or CSV), checked, counted and expanded."""
