from enum import StrEnum


class TemplateDocumentLayersItemType3VerticalAlign(StrEnum):
    BOTTOM = "bottom"
    CENTER = "center"
    TOP = "top"

    def __str__(self) -> str:
        return str(self.value)
