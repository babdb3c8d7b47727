from enum import StrEnum


class TemplateDocumentTextLayerVerticalAlign(StrEnum):
    BOTTOM = "bottom"
    CENTER = "center"
    TOP = "top"

    def __str__(self) -> str:
        return str(self.value)
