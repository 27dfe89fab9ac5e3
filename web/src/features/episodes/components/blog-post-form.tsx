// Editing the blog post: its title and its Markdown (with a short guide to the marks it reads).
import type { BlogPost } from '@domain/episode-content';
import { z } from 'zod/mini';
import { Form, useZodForm } from '@/components/form';
import { FormField, TextAreaField } from '@/components/form-field';
import { useUpdateBlogPost } from '../api/update-blog-post';
import { reviewTexts as t } from '../texts';
import { EditActions } from './edit-actions';

const blogFormSchema = z.object({
  title: z.string().check(z.refine((value) => value.trim().length >= 1 && value.trim().length <= 200, t.titleRequired)),
  markdown: z.string().check(z.refine((value) => value.trim().length >= 1, t.textRequired)),
});

export default function BlogPostForm({ episodeId, blogPost, onDone }: { episodeId: string; blogPost: BlogPost; onDone: () => void }) {
  const update = useUpdateBlogPost(episodeId);
  const form = useZodForm(blogFormSchema, { defaultValues: { title: blogPost.title, markdown: blogPost.markdown } });
  return (
    <Form
      form={form}
      onSubmit={async (values) => {
        await update.mutateAsync({ title: values.title.trim(), markdown: values.markdown });
        onDone();
      }}
      failureTitle={t.blogFailedTitle}
      failureAlert
      success={{ title: t.blogSavedTitle }}
    >
      <FormField label={t.blogTitleLabel} maxLength={200} error={form.formState.errors.title?.message} {...form.register('title')} />
      <TextAreaField label={t.blogTextLabel} rows={16} error={form.formState.errors.markdown?.message} {...form.register('markdown')} />
      <p className="text-sm text-base-content/70">{t.blogTextHint}</p>
      <EditActions save={t.saveBlog} saving={t.savingBlog} onCancel={onDone} />
    </Form>
  );
}
