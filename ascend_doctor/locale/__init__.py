"""Message catalogs: <locale>/*.po (sources, one per area) and, in a built wheel, <locale>/LC_MESSAGES/*.mo."""
