from enum import StrEnum


class TemplateDocumentTextLayerAlign(StrEnum):
    CENTER = "center"
    END = "end"
    LEFT = "left"
    RIGHT = "right"
    START = "start"

    def __str__(self) -> str:
        return str(self.value)
