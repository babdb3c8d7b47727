from enum import StrEnum


class TemplateDocumentAspect(StrEnum):
    OG = "og"
    PORTRAIT = "portrait"
    SQUARE = "square"

    def __str__(self) -> str:
        return str(self.value)
