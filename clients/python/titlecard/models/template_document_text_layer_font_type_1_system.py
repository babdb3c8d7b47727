from enum import StrEnum


class TemplateDocumentTextLayerFontType1System(StrEnum):
    ARIAL = "arial"
    INTER = "inter"
    LORA = "lora"
    MONTSERRAT = "montserrat"
    OSWALD = "oswald"
    PLAYFAIR_DISPLAY = "playfair-display"
    RALEWAY = "raleway"
    ROBOTO = "roboto"
    SOURCE_SANS_PRO = "source-sans-pro"

    def __str__(self) -> str:
        return str(self.value)
