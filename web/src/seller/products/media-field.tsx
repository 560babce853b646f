import type { UseFormReturn } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { Button } from "../../ui/components";
import { FileUpload } from "../../ui/file-upload";
import type { ProductForm } from "./form";

const messages = defineMessages({
  title: { id: "seller.productForm.media", defaultMessage: "Images" },
  hint: { id: "seller.productForm.mediaHint", defaultMessage: "Shown on the checkout, in this order. PNG, JPEG, GIF, WebP or AVIF." },
  add: { id: "seller.productForm.addImage", defaultMessage: "Add an image" },
  remove: defineMessage<{ name: string }>({ id: "seller.productForm.removeImage", defaultMessage: "Remove {name}" }),
});

/** The product's images: each uploaded at once with its progress, shown as a thumbnail, attached on save. */
export function MediaField({ form, organizationId }: { form: UseFormReturn<ProductForm>; organizationId: string }) {
  const { formatMessage } = useIntl();
  const medias = form.watch("medias");
  const setMedias = (next: ProductForm["medias"]) => form.setValue("medias", next, { shouldDirty: true });
  return (
    <section className="form-section" aria-label={formatMessage(messages.title)}>
      <h2>{formatMessage(messages.title)}</h2>
      <p className="hint">{formatMessage(messages.hint)}</p>
      {medias.length > 0 && (
        <ul className="thumbnails">
          {medias.map((media) => (
            <li key={media.id}>
              {media.public_url && <img src={media.public_url} alt={media.name} />}
              <Button variant="ghost" onClick={() => setMedias(medias.filter((other) => other.id !== media.id))}>
                {formatMessage(messages.remove, { name: media.name })}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <FileUpload
        service="product_media"
        organizationId={organizationId}
        accept="image/png,image/jpeg,image/gif,image/webp,image/avif"
        label={formatMessage(messages.add)}
        onUploaded={(file) => setMedias([...form.getValues("medias"), { id: file.id, name: file.name, public_url: "public_url" in file ? file.public_url : undefined }])}
      />
    </section>
  );
}
