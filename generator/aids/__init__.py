"""Player aids and record sheets: prose and charts from the kit data, measured, fitted and drawn with reportlab."""
