from enum import StrEnum


class TemplateDocumentGradientLayerDirection(StrEnum):
    RADIAL = "radial"
    TO_BOTTOM = "to-bottom"
    TO_CENTER = "to-center"
    TO_LEFT = "to-left"
    TO_RIGHT = "to-right"
    TO_TOP = "to-top"

    def __str__(self) -> str:
        return str(self.value)
